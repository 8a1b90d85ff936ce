import { listServices } from './catalogue/list-services.js';
import { checkCoverage } from './coverage/check-coverage.js';
import { addAddress, listAddresses } from './account/addresses.js';
import { myProfile } from './account/my-profile.js';
import { addPet, listPets } from './account/pets.js';
import { findTimes } from './booking/find-times.js';
import { getQuote } from './booking/get-quote.js';
import { book } from './booking/book.js';
import {
  cancelBooking,
  getBooking,
  listBookings,
  payBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './booking/manage.js';
import type { Operation } from './define.js';
import { findPetBusinesses } from './directory/find-pet-businesses.js';
import { browseShop } from './shop/browse-shop.js';
import { quoteOrder } from './shop/quote-order.js';
import { buy } from './shop/buy.js';
import { getOrder, listOrders } from './shop/orders.js';
import { payOrder } from './shop/pay-order.js';
import { getSignupStatus, startBusinessSignup } from './business/signup.js';
import { prepareBusinessSignup } from './business/draft.js';
import { setServiceArea } from './business/area.js';
import { connectGateway } from './business/gateway.js';
import { setOperatingHours } from './business/hours.js';
import { addResources } from './business/resources.js';
import { addBusinessServices } from './business/services.js';
import { inviteStaff } from './business/staff.js';
import { submitBusinessForReview } from './business/submit.js';
import { getDayPlan } from './run/day-plan.js';
import { listBusinessBookings } from './run/bookings.js';
import { acceptBusinessBooking, cancelBusinessBooking, declineBooking, moveBooking } from './run/manage.js';
import { bookForClient, findBusinessTimes, rebookBooking } from './run/book-for-client.js';
import { createInvoiceLink, sendPaymentLink } from './run/money.js';
import { proposeServiceArea } from './run/areas.js';
import { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './run/staff.js';
import { acceptInvitation, declineInvitation, leaveBusiness, listMyInvitations } from './run/invitations.js';
import { addClientNote, getClient, listClients } from './run/clients.js';
import { listPrices, updatePrices } from './run/prices.js';
import { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './run/hours.js';
import { getEarnings, listPayouts, listUnpaidClients } from './run/earnings.js';

/** Every operation of the service, in the order of the spec. Adapters derive everything from this list. */
export const operations: readonly Operation[] = [
  listServices,
  checkCoverage,
  getQuote,
  findTimes,
  listBookings,
  book,
  getBooking,
  rescheduleTimes,
  rescheduleBooking,
  cancelBooking,
  payBooking,
  myProfile,
  listPets,
  addPet,
  listAddresses,
  addAddress,
  browseShop,
  quoteOrder,
  buy,
  listOrders,
  getOrder,
  payOrder,
  findPetBusinesses,
  prepareBusinessSignup,
  getSignupStatus,
  startBusinessSignup,
  addBusinessServices,
  setServiceArea,
  addResources,
  setOperatingHours,
  inviteStaff,
  connectGateway,
  submitBusinessForReview,
  getDayPlan,
  listBusinessBookings,
  acceptBusinessBooking,
  declineBooking,
  findBusinessTimes,
  bookForClient,
  rebookBooking,
  moveBooking,
  cancelBusinessBooking,
  listClients,
  getClient,
  addClientNote,
  sendPaymentLink,
  createInvoiceLink,
  listPrices,
  updatePrices,
  setWorkingHours,
  addTimeOff,
  listTimeOff,
  removeTimeOff,
  proposeServiceArea,
  listStaff,
  inviteStaffMember,
  changeStaffRole,
  removeStaffMember,
  listMyInvitations,
  acceptInvitation,
  declineInvitation,
  leaveBusiness,
  getEarnings,
  listPayouts,
  listUnpaidClients,
] as unknown as Operation[];
