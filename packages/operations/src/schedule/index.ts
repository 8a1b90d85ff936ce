/** The public entry of schedule/: working time, weeks, date and time shapes, open times (find_times). */
export { findTimes, TimesAnswerSchema } from './find-times.js';
export {
  askedRange,
  checkSlot,
  endOf,
  engineError,
  freeResourceAt,
  groupOf,
  nothingOpen,
  openDays,
  planSitting,
  planSittingFor,
  sittingContext,
  sittingDays,
  sittingUnavailable,
  slotInputFor,
  WHY_CLOSED,
} from './schedule.js';
export {
  checkDateBounds,
  checkSearchDates,
  DATE,
  DaySchema,
  HHMM,
  SlotSchema,
  StaySchema,
  VisitsSchema,
} from './time-schemas.js';
export { sameWeek, type Week, WeekSchema, weekWords } from './week.js';
export { flagIfOutsideWorkingTime, outsideHours } from './working-time.js';
