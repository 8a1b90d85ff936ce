/** The public entry of staff/: who may run which business (inBusiness), staff and their invitations. */
export {
  type InBusiness,
  inBusiness,
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
  invitationExpiry,
  invitationForPerson,
  invitationsOfPerson,
  leaveBusiness,
  listMyInvitations,
  mailInvitation,
  offeredRole,
} from './invitations.js';
export { PersonShape } from './person.js';
export { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './staff.js';
