export { type SlotEngineErrorCode, SlotEngineError } from './errors.js';
export {
  DEFAULT_DAYS,
  DEFAULT_MIN_NOTICE_MIN,
  DEFAULT_STEP_MIN,
  DEFAULT_VAN_BUFFER_MIN,
  checkSlot,
  findSlots,
  MAX_RANGE_DAYS,
  MAX_RANGES_PER_DAY,
} from './find-slots.js';
export { dayLabel } from './day-label.js';
export { DAY_KEYS, dayKeyOf, localDateText } from './local-time.js';
export { localDayStart, localInstant, workingIntervals } from './local-instant.js';
export { mergeWeeks } from './merge-weeks.js';
export { rangeFromToday } from './range-from-today.js';
export { LOOKAHEAD_DAYS, nextOpenSlots } from './next-open-slots.js';
export {
  nextSittings,
  type PlanEntry,
  planStay,
  type SittingInput,
  sittingReason,
  planVisits,
  type SittingPlan,
  type Stay,
  VISIT_WINDOWS,
  type VisitWindowName,
  type Visits,
} from './plan-sitting.js';
export type {
  BusyInterval,
  DayKey,
  DayResult,
  EmptyReason,
  FindSlotsInput,
  FindSlotsResult,
  GroupRequest,
  InstantInput,
  Resource,
  Slot,
  SlotCheck,
  SlotCheckInput,
  TimeOff,
  TimeRange,
  Week,
} from './types.js';
