import { arrayOf, type Context } from './context.js';
import { type Finding, requiredItem } from './item.js';
import { count, nameOf } from './text.js';
import type { ApplicationService, ChecklistItem } from './types.js';

const fixWith = 'add_business_services';

/** A price the business set: a whole number of minor units, not waiting for one (`needsPrice`). */
function hasPrice(service: ApplicationService): boolean {
  return (
    service.needsPrice !== true &&
    typeof service.priceCents === 'number' &&
    Number.isSafeInteger(service.priceCents) &&
    service.priceCents >= 0
  );
}

/**
 * Services: each line offered needs at least one PRIMARY service (missing otherwise), and every
 * service needs a price: one marked `needsPrice` (copied from the operator's menu into another
 * currency) or without a price needs attention, named one by one with the currency.
 */
export function checkServices({ data, currency, offered }: Context): ChecklistItem {
  const services = arrayOf(data.services).filter((s) => s !== null && typeof s === 'object');
  const findings: Finding[] = [];

  for (const category of offered) {
    if (!services.some((s) => s.category === category && s.kind === 'PRIMARY')) {
      findings.push({
        text: `a main ${category} service (one people book on its own, not an extra), with its price and duration`,
        status: 'MISSING',
        fixWith,
      });
    }
  }
  if (offered.length === 0 && services.length === 0) {
    findings.push({
      text: 'the services the business offers, each with its price',
      status: 'MISSING',
      fixWith,
    });
  }

  const inCurrency = currency ? ` (${currency})` : '';
  for (const service of services) {
    if (!hasPrice(service)) {
      findings.push({
        text: `a price for ${nameOf(service.name, 'a service without a name')}${inCurrency}`,
        status: 'NEEDS_ATTENTION',
        fixWith,
      });
    }
  }

  const main = services.filter((s) => s.kind === 'PRIMARY').length;
  const note =
    services.length === 0
      ? null
      : `${count(services.length, 'service')}: ${main} main, ${services.length - main} ${services.length - main === 1 ? 'extra' : 'extras'}.`;
  return requiredItem('services', findings, fixWith, note);
}
