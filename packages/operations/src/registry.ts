import { getQuote, listPrices, listServices, updatePrices } from './catalogue/index.js';
import { checkCoverage } from './places/index.js';
import { addAddress, addPet, listAddresses, listPets, myProfile } from './account/index.js';
import { findTimes } from './schedule/index.js';
import {
  acceptBusinessBooking,
  book,
  bookForClient,
  cancelBooking,
  cancelBusinessBooking,
  declineBooking,
  findBusinessTimes,
  getBooking,
  getDayPlan,
  listBookings,
  listBusinessBookings,
  moveBooking,
  payBooking,
  rebookBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './bookings/index.js';
import type { McpSurface, Operation, Scope } from './core/index.js';
import { findPetBusinesses } from './directory/index.js';
import { browseShop, buy, getOrder, listOrders, payOrder, quoteOrder } from './shop/index.js';
import {
  addBusinessServices,
  addResources,
  connectGateway,
  getSignupStatus,
  inviteStaff,
  prepareBusinessSignup,
  proposeServiceArea,
  setOperatingHours,
  setServiceArea,
  startBusinessSignup,
  submitBusinessForReview,
} from './onboarding/index.js';
import {
  createInvoiceLink,
  getEarnings,
  listPayouts,
  listUnpaidClients,
  sendPaymentLink,
} from './money/index.js';
import {
  acceptInvitation,
  changeStaffRole,
  declineInvitation,
  inviteStaffMember,
  leaveBusiness,
  listMyInvitations,
  listStaff,
  removeStaffMember,
} from './staff/index.js';
import { addClientNote, getClient, listClients } from './clients/index.js';
import { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './hours/index.js';
import { getNotificationSettings, updateNotificationSettings } from './notices/index.js';
import {
  getBusinessCalendarFeed,
  getCalendarFeed,
  rotateBusinessCalendarFeed,
  rotateCalendarFeed,
} from './feeds/index.js';
import {
  createMyWebhookEndpoint,
  createWebhookEndpoint,
  deleteMyWebhookEndpoint,
  deleteWebhookEndpoint,
  listMyWebhookDeliveries,
  listMyWebhookEndpoints,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverMyWebhook,
  redeliverWebhook,
} from './webhooks/index.js';

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
  getNotificationSettings,
  updateNotificationSettings,
  getCalendarFeed,
  rotateCalendarFeed,
  getBusinessCalendarFeed,
  rotateBusinessCalendarFeed,
  createWebhookEndpoint,
  listWebhookEndpoints,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  redeliverWebhook,
  createMyWebhookEndpoint,
  listMyWebhookEndpoints,
  deleteMyWebhookEndpoint,
  listMyWebhookDeliveries,
  redeliverMyWebhook,
] as unknown as Operation[];

/** The operations an MCP endpoint lists as tools, in registry order. */
export function toolsOn(surface: McpSurface): readonly Operation[] {
  return operations.filter((op) => op.mcp === surface);
}

/** The scopes an MCP endpoint's tools need: what its protected resource metadata names. */
export function scopesOn(surface: McpSurface): Scope[] {
  return [...new Set(toolsOn(surface).flatMap((op) => (op.auth === 'public' ? [] : [op.auth.scope])))];
}
