/** The public entry of hours/: a business's working hours and time off, and the bookings a change strands. */
export { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './working-hours.js';
