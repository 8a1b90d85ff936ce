/** The public entry of staff/: who may run which business (inBusiness), staff and their invitations. */
export {
  type InBusiness,
  inBusiness,
  managedBusinessesOf,
  RUN_ACCESS_ERRORS,
  type RunAccess,
  runAccess,
  RunBusinessIdShape,
  type RunNeed,
} from './access.js';
export {
  acceptInvitation,
  declineInvitation,
  INVITATION_DAYS,
  INVITATION_MAIL_KIND,
  type InvitationAnswer,
  invitationExpiry,
  invitationForPerson,
  invitationMail,
  invitationsOfPerson,
  leaveBusiness,
  listMyInvitations,
  mailInvitation,
  offeredRole,
} from './invitations.js';
export { PersonShape } from './person.js';
export { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './staff.js';
