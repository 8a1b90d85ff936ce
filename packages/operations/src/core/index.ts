/** The public entry of core/ (the door, the context and its ports, errors, schemas, text, local times): what every other module uses. */
export { auditChange } from './audit.js';
export {
  type AuthContext,
  authenticate,
  createApiKey,
  hashSecret,
  insufficientScope,
  isEmailAddress,
  isScope,
  type NewApiKey,
  newSecret,
  type Scope,
  SCOPE_NAMES,
  SCOPES,
} from './auth.js';
export { currentCallId } from './call-scope.js';
export {
  CONFIRM_KINDS,
  type ConfirmAmount,
  type ConfirmKind,
  type ConfirmParts,
  type ConfirmPartsOut,
  confirmStep,
  confirmSummary,
  type ConfirmWhen,
  staffParts,
} from './confirm.js';
export {
  actorName,
  type Clock,
  type Deps,
  type Logger,
  type MailMessage,
  type MailTransport,
  type OperationContext,
  type Payments,
  type Principal,
  statedClientName,
  systemClock,
  type WebhookSettings,
} from './context.js';
export { keysetCursor } from './cursor.js';
export {
  type AnyOperation,
  defineInternalOperation,
  defineOperation,
  type ErrorResponse,
  type HttpMethod,
  type InternalOperation,
  type McpListing,
  MCP_PATHS,
  type McpSurface,
  isInternal,
  type Operation,
  type PrincipalKind,
  READ_ONLY,
  type ToolAnnotations,
} from './define.js';
export {
  badRequest,
  DATABASE_RETRY_AFTER_SECONDS,
  type ErrorBody,
  type ErrorCode,
  ServiceError,
  STATUS_OF,
  type ThrownCode,
  toServiceError,
} from './errors.js';
export { LINK_MAILS_PER_HOUR, takeLinkMailAllowance } from './link-mails.js';
export { layoutMail, type MailBlock, type MailLayout, oneLine, safeHref } from './mail-layout.js';
export {
  addDays,
  DAY_MS,
  dayText,
  localDate,
  localDaysWindow,
  localTime,
  MINUTE,
  momentText,
  whenText,
} from './local-time.js';
export {
  type Checkout,
  type CheckoutRequest,
  type EventTypeName,
  type EventTypeNames,
  type GeoData,
  type NotificationOutcome,
  type OfferCache,
  offersThrough,
  type PaymentGateway,
  type VerifiedNotification,
} from './ports.js';
export {
  type FieldProblem,
  fieldProblems,
  parseInput,
  runOperation,
  transactionAsPool,
  unstorableTextError,
} from './run-operation.js';
export {
  CoatSchema,
  documentRules,
  ErrorBodySchema,
  ErrorCodeSchema,
  IdempotencyKeyHeaderSchema,
  LineIdSchema,
  oneGroupOf,
  PetTypeSchema,
  ServiceIdsSchema,
  singleLine,
  WeightKgSchema,
} from './schemas.js';
export { cutText, findUnstorableText, type TextProblem, toStorableText, unstorableReason } from './text.js';
export { NO_INPUT, operatorOf, personOf, typed } from './typed.js';
