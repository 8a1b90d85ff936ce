import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** A directory listing's own contacts, as it is listed. */
export interface ListingContacts {
  phone?: string | null;
  email?: string | null;
  website?: string | null;
}

/** What the applicant gave: the business's phone, email and website, and the account's email. */
export interface ApplicantContacts {
  phone?: string | null;
  /** Every email of the applicant: the business email given and the account's. */
  emails?: (string | null | undefined)[];
  website?: string | null;
  /** ISO 3166 alpha-2: how a number without a country code is read (else as South African). */
  country?: string | null;
}

export interface ClaimCheck {
  field: 'phone' | 'email' | 'website';
  /** The listing's value, as listed. */
  listing: string;
  /** The applicant's value it was compared with (the closest one when several). */
  applicant: string;
  agrees: boolean;
  /** How they were compared, in words. */
  how: string;
}

export interface ClaimEvidence {
  /**
   * MATCH: something agrees and nothing disagrees. MISMATCH: something disagrees. NOTHING_TO_COMPARE:
   * the listing has no contact the applicant gave a counterpart to.
   */
  verdict: 'MATCH' | 'MISMATCH' | 'NOTHING_TO_COMPARE';
  /** True when a contact of the listing disagrees with the applicant's. */
  mismatch: boolean;
  checks: ClaimCheck[];
  /** One line for the operator. */
  summary: string;
}

/**
 * Mail providers anyone can have an address at: the same domain there is no evidence, only the same
 * address is. A small list of the common ones (and South Africa's); a domain not on it counts as the
 * business's own.
 */
export const SHARED_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'webmail.co.za',
  'mweb.co.za',
  'telkomsa.net',
  'vodamail.co.za',
  'iafrica.com',
  'lantic.net',
  'absamail.co.za',
]);

const clean = (v: string | null | undefined): string | null => {
  const t = typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '';
  return t ? t : null;
};

/**
 * A phone in E.164 (+27825550101) when libphonenumber-js reads it (a number without a country code
 * in `country`, else South Africa's way), else its digits alone; null without digits.
 */
export function normalisePhone(phone: string, country?: string | null): string | null {
  const text = phone.trim().replace(/^00/, '+');
  const parsed = parsePhoneNumberFromString(text, (country ?? 'ZA').toUpperCase() as never);
  if (parsed?.isPossible()) return parsed.number;
  const digits = text.replace(/\D/g, '');
  return digits ? digits : null;
}

/** A website's host in lower case without `www.`: "https://www.Paws.co.za/x" → "paws.co.za"; null when none. */
export function websiteHost(website: string): string | null {
  const t = website.trim();
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}`);
    const host = url.hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
    return host.includes('.') ? host : null;
  } catch {
    return null;
  }
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Whether a claimed directory listing's own contacts back the applicant's claim to it: the phones as
 * E.164 (digits alone when one cannot be read), the emails as addresses (or the same domain when it
 * is not a shared mail provider), the website's host against the applicant's website and email
 * domains. Only contacts both sides have are compared. The operator decides; this says what agrees.
 *
 * @example compareClaim({ phone: '021 555 0101' }, { phone: '+27 21 555 0101' }).verdict // 'MATCH'
 */
export function compareClaim(listing: ListingContacts, applicant: ApplicantContacts): ClaimEvidence {
  const checks: ClaimCheck[] = [];
  const country = applicant.country ?? null;
  const emails = [...new Set((applicant.emails ?? []).map(clean).filter((e): e is string => !!e))];

  const listedPhone = clean(listing.phone);
  const givenPhone = clean(applicant.phone);
  if (listedPhone && givenPhone) {
    const a = normalisePhone(listedPhone, country);
    const b = normalisePhone(givenPhone, country);
    checks.push({
      field: 'phone',
      listing: listedPhone,
      applicant: givenPhone,
      agrees: a !== null && a === b,
      how: 'the same number (E.164)',
    });
  }

  const listedEmail = clean(listing.email);
  if (listedEmail && emails.length) {
    const same = emails.find((e) => e.toLowerCase() === listedEmail.toLowerCase());
    const domain = domainOf(listedEmail);
    const sameDomain = SHARED_MAIL_DOMAINS.has(domain)
      ? undefined
      : emails.find((e) => domainOf(e) === domain);
    checks.push({
      field: 'email',
      listing: listedEmail,
      applicant: same ?? sameDomain ?? emails[0]!,
      agrees: !!(same ?? sameDomain),
      how: same ? 'the same address' : sameDomain ? `an address at ${domain}` : 'the address or its domain',
    });
  }

  const listedSite = clean(listing.website);
  const listedHost = listedSite ? websiteHost(listedSite) : null;
  const givenSite = clean(applicant.website);
  const givenHost = givenSite ? websiteHost(givenSite) : null;
  // Emails on a domain of their own say which website is theirs; a shared provider's say nothing.
  const ownDomains = emails.filter((e) => !SHARED_MAIL_DOMAINS.has(domainOf(e)));
  if (listedSite && (givenSite || ownDomains.length)) {
    const byEmail = listedHost ? ownDomains.find((e) => domainOf(e) === listedHost) : undefined;
    const bySite = listedHost !== null && givenHost === listedHost;
    checks.push({
      field: 'website',
      listing: listedSite,
      applicant: bySite ? givenSite! : (byEmail ?? givenSite ?? ownDomains[0]!),
      agrees: bySite || !!byEmail,
      how: bySite
        ? `the same site (${listedHost})`
        : byEmail
          ? `an email at the site's domain (${listedHost})`
          : 'the site, or an email at its domain',
    });
  }

  const agree = checks.filter((c) => c.agrees);
  const differ = checks.filter((c) => !c.agrees);
  const verdict = differ.length ? 'MISMATCH' : agree.length ? 'MATCH' : 'NOTHING_TO_COMPARE';
  const names = (cs: ClaimCheck[], one: string, many: string) =>
    `${cs.map((c) => c.field).join(' and ')} ${cs.length === 1 ? one : many}`;
  const summary =
    verdict === 'MATCH'
      ? `The listing's ${names(agree, 'matches', 'match')} what the applicant gave.`
      : verdict === 'MISMATCH'
        ? `Mismatch: the listing's ${names(differ, 'differs', 'differ')} from what the applicant gave${agree.length ? ` (its ${names(agree, 'matches', 'match')})` : ''}; check the claim another way before granting it.`
        : 'Nothing to compare: the listing has no phone, email or website the applicant gave a counterpart to; check the claim another way before granting it.';
  return { verdict, mismatch: differ.length > 0, checks, summary };
}
