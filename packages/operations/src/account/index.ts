/** The public entry of account/: the pet owner's profile, pets, addresses and account page. */
export { addAddress, listAddresses } from './addresses.js';
export { myProfile } from './my-profile.js';
export {
  ACCOUNT_PAGE,
  type AccountBooking,
  accountBookings,
  accountPageContext,
  changeSavedNotes,
  personTimeZone,
  removeSaved,
  UPCOMING_SHOWN,
} from './own-account.js';
export { addPet, listPets } from './pets.js';
