export type DayKey = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** A local working range, `HH:MM` to `HH:MM` (`24:00` allowed as an end). */
export interface TimeRange {
  start: string;
  end: string;
}

export type Week = Partial<Record<DayKey, TimeRange[]>>;

export interface Resource {
  id: string;
  kind: 'VAN' | 'WALKER' | 'SITTER';
  /** Local working ranges per day, up to 6 a day; days off are left out. */
  week: Week;
  /** Minutes between possible starts; default 30. */
  slotStepMin?: number;
  /** Minutes kept clear before and after each booking; default 15 for vans, 0 otherwise. */
  travelBufferMin?: number;
}

/** An instant: ISO 8601 text, epoch milliseconds or a Date (as a database driver returns it). */
export type InstantInput = string | number | Date;

/** Time off: a resource's, or the whole business's when `resourceId` is absent (a public holiday). */
export interface TimeOff {
  resourceId?: string;
  start: InstantInput;
  end: InstantInput;
}

/** An existing booking on a resource. */
export interface BusyInterval {
  resourceId: string;
  start: InstantInput;
  end: InstantInput;
  /** Group walks: bookings of the same group (service) at the same times share one walk. */
  groupKey?: string;
  /** Places the booking takes in its group (dogs); default 1. */
  size?: number;
}

export interface GroupRequest {
  key: string;
  capacity: number;
  size: number;
}

export interface FindSlotsInput {
  resources: Resource[];
  timeOff?: TimeOff[];
  busy?: BusyInterval[];
  durationMin: number;
  /** IANA time zone of the business. */
  timeZone: string;
  /** The present instant (ISO 8601). */
  now: string;
  /** Local dates `YYYY-MM-DD`, inclusive; default today and the next 6 days; at most 31 days. */
  from?: string;
  to?: string;
  /** A daily window: slots start at or after `windowStart` and end by `windowEnd` (`HH:MM`). */
  windowStart?: string;
  windowEnd?: string;
  /** No slot starts sooner than this after `now`; default 120 minutes. */
  minNoticeMin?: number;
  /** For a group walk: join bookings of the same group until it is full. */
  group?: GroupRequest;
  /** Ids of busy intervals to ignore (a booking being moved does not block itself). */
  ignoreBusy?: (b: BusyInterval) => boolean;
  locale?: string;
}

export interface Slot {
  /** The instant, ISO 8601 UTC. Pass it to booking unchanged. */
  start: string;
  /** Local `HH:MM`. */
  time: string;
  resourceId: string;
}

export type EmptyReason = 'PAST' | 'CLOSED_DAY' | 'TIME_OFF' | 'OUTSIDE_HOURS' | 'FULLY_BOOKED';

export interface DayResult {
  date: string;
  /** `Today`, `Tomorrow`, or e.g. `Tuesday 24 November`. */
  label: string;
  slots: Slot[];
  /** Why a day has no slots. */
  why?: EmptyReason;
}

export interface FindSlotsResult {
  days: DayResult[];
}

/** One start on one resource to check: the same schedule as {@link FindSlotsInput}, no range. */
export interface SlotCheckInput extends Omit<FindSlotsInput, 'from' | 'to' | 'windowStart' | 'windowEnd'> {
  /** The slot's start (an instant), as find_slots gave it. */
  start: InstantInput;
  resourceId: string;
}

/** `OPEN`: bookable now; `TAKEN`: a slot, but booked; `NOT_A_SLOT`: never one (`why`, when the whole day has none). */
export type SlotCheck =
  | { status: 'OPEN' }
  | { status: 'TAKEN' }
  | { status: 'NOT_A_SLOT'; why?: EmptyReason };
