import { PricingError } from './errors.js';
import { formatMoney } from './format-money.js';
import { matchTier } from './match-tier.js';
import type { PetForQuote, Quote, QuoteInput, QuoteItem, Service } from './types.js';

function duration(min: number): string {
  const h = Math.floor(min / 60);
  const m = min % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function itemsFor(pet: PetForQuote, input: QuoteInput, byId: Map<string, Service>): QuoteItem[] {
  const seen = new Set<string>();
  const items: QuoteItem[] = [];
  let primaries = 0;
  for (const id of pet.serviceIds) {
    const service = byId.get(id);
    if (!service) throw new PricingError('UNKNOWN_SERVICE', `There is no service "${id}" (for ${pet.name}).`, { pet: pet.name, serviceId: id });
    if (service.lineId !== input.line.id) {
      throw new PricingError('WRONG_LINE', `"${service.name}" is not part of ${input.line.label} (for ${pet.name}).`, {
        pet: pet.name,
        serviceId: id,
        line: service.lineId,
      });
    }
    if (!service.petTypes.includes(pet.type)) {
      throw new PricingError('WRONG_PET_TYPE', `"${service.name}" is not offered for a ${pet.type.toLowerCase()} (${pet.name}).`, {
        pet: pet.name,
        serviceId: id,
      });
    }
    if (seen.has(id)) throw new PricingError('DUPLICATE_SERVICE', `"${service.name}" is listed twice for ${pet.name}.`, { pet: pet.name, serviceId: id });
    seen.add(id);
    if (service.kind === 'PRIMARY') primaries += 1;
    const { priceCents, durationMin } = matchTier(service, pet);
    items.push({ serviceId: id, name: service.name, kind: service.kind, priceCents, durationMin });
  }
  if (primaries === 0) {
    throw new PricingError('NO_PRIMARY', `${pet.name} needs one main service of ${input.line.label}, plus any extras.`, { pet: pet.name });
  }
  if (primaries > 1) {
    const ids = items.filter((i) => i.kind === 'PRIMARY').map((i) => i.serviceId);
    throw new PricingError('TOO_MANY_PRIMARY', `${pet.name} can have one main service, not ${primaries} (${ids.join(', ')}).`, {
      pet: pet.name,
      serviceId: ids[1],
    });
  }
  // The main service first, then the extras in the order asked.
  return [...items.filter((i) => i.kind === 'PRIMARY'), ...items.filter((i) => i.kind === 'EXTRA')];
}

/**
 * Prices a booking: each pet takes exactly one PRIMARY service plus any EXTRAs of the same line,
 * allowed for its pet type. Duration is the sum over pets for `SUM` lines (one van, one pet after
 * another) and the longest pet for `MAX` lines (walked or sat together). The card fee applies
 * once per booking. Group walks: every dog takes the same group walk, one place each.
 *
 * @example quote({ line, services, pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }], serviceFeeCents: 1000, acceptsCash: true, currency: 'ZAR' })
 */
export function quote(input: QuoteInput): Quote {
  if (input.pets.length === 0) throw new PricingError('NO_PETS', 'Name at least one pet.');
  const byId = new Map(input.services.map((s) => [s.id, s]));
  const pets = input.pets.map((pet) => ({ name: pet.name, items: itemsFor(pet, input, byId) }));
  const perPet = pets.map((p) => p.items.reduce((sum, i) => sum + i.durationMin, 0));
  const durationMin = input.line.durationMode === 'SUM' ? perPet.reduce((a, b) => a + b, 0) : Math.max(...perPet);
  const subtotalCents = pets.reduce((sum, p) => sum + p.items.reduce((s, i) => s + i.priceCents, 0), 0);

  const primaries = pets.map((p) => byId.get(p.items[0]!.serviceId)!);
  const group = primaries.find((s) => s.groupSize > 1);
  let groupSize: number | undefined;
  if (group) {
    const other = primaries.find((s) => s.id !== group.id);
    if (other) {
      throw new PricingError('MIXED_GROUP_WALK', `All dogs on a group walk take the same walk: "${group.name}", not "${other.name}".`, {
        serviceId: other.id,
      });
    }
    if (pets.length > group.groupSize) {
      throw new PricingError('GROUP_TOO_LARGE', `"${group.name}" takes at most ${group.groupSize} dogs; ${pets.length} were named.`, {
        serviceId: group.id,
        groupSize: group.groupSize,
      });
    }
    groupSize = pets.length;
  }

  const cardTotalCents = subtotalCents + input.serviceFeeCents;
  const money = (n: number) => formatMoney(n, input.currency, input.locale);
  const what = list(pets.map((p) => `${p.name} (${list(p.items.map((i) => i.name))})`));
  const pay = input.acceptsCash ? `${money(subtotalCents)} cash or ${money(cardTotalCents)} by card` : `${money(cardTotalCents)} by card`;
  const summary = `${input.line.label} for ${what}: about ${duration(durationMin)}, ${pay}.`;
  return {
    category: input.line.id,
    durationMin,
    pets,
    subtotalCents,
    cardFeeCents: input.serviceFeeCents,
    cardTotalCents,
    cashTotalCents: subtotalCents,
    acceptsCash: input.acceptsCash,
    summary,
    ...(groupSize !== undefined ? { groupSize } : {}),
  };
}
