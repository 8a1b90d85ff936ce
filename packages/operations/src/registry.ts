import { listServices } from './catalogue/list-services.js';
import { checkCoverage } from './places/check-coverage.js';
import { addAddress, listAddresses } from './account/addresses.js';
import { myProfile } from './account/my-profile.js';
import { addPet, listPets } from './account/pets.js';
import { findTimes } from './schedule/find-times.js';
import { getQuote } from './catalogue/get-quote.js';
import { book } from './bookings/book.js';
import {
  cancelBooking,
  getBooking,
  listBookings,
  payBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './bookings/manage.js';
import type { Operation } from './core/define.js';
import { findPetBusinesses } from './directory/find-pet-businesses.js';
import { browseShop } from './shop/browse-shop.js';
import { quoteOrder } from './shop/quote-order.js';
import { buy } from './shop/buy.js';
import { getOrder, listOrders } from './shop/orders.js';
import { payOrder } from './shop/pay-order.js';
import { getSignupStatus, startBusinessSignup } from './onboarding/signup.js';
import { prepareBusinessSignup } from './onboarding/draft.js';
import { setServiceArea } from './onboarding/step-area.js';
import { connectGateway } from './onboarding/connect-gateway.js';
import { setOperatingHours } from './onboarding/step-hours.js';
import { addResources } from './onboarding/step-resources.js';
import { addBusinessServices } from './onboarding/step-services.js';
import { inviteStaff } from './onboarding/step-staff.js';
import { submitBusinessForReview } from './onboarding/submit.js';
import { getDayPlan } from './bookings/day-plan.js';
import { listBusinessBookings } from './bookings/business-bookings.js';
import {
  acceptBusinessBooking,
  cancelBusinessBooking,
  declineBooking,
  moveBooking,
} from './bookings/business-actions.js';
import { bookForClient, findBusinessTimes, rebookBooking } from './bookings/book-for-client.js';
import { createInvoiceLink, sendPaymentLink } from './money/payment-links.js';
import { proposeServiceArea } from './onboarding/propose-area.js';
import { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './staff/staff.js';
import {
  acceptInvitation,
  declineInvitation,
  leaveBusiness,
  listMyInvitations,
} from './staff/invitations.js';
import { addClientNote, getClient, listClients } from './clients/clients.js';
import { listPrices, updatePrices } from './catalogue/business-prices.js';
import { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './hours/working-hours.js';
import { getEarnings, listPayouts, listUnpaidClients } from './money/earnings.js';

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
