import { describe, expect, it } from 'vitest';
import { compareClaim, normalisePhone, websiteHost } from './claim-evidence.js';

describe('compareClaim', () => {
  it('reads phones as E.164, whichever way they are written', () => {
    expect(normalisePhone('021 555 0101')).toBe('+27215550101');
    expect(normalisePhone('+27 (21) 555-0101')).toBe('+27215550101');
    expect(normalisePhone('0027 21 555 0101')).toBe('+27215550101');
    expect(normalisePhone('912 345 678', 'PT')).toBe('+351912345678');
    expect(normalisePhone('ext. 12')).toBe('12');
    expect(normalisePhone('none')).toBeNull();
    const e = compareClaim({ phone: '021 555 0101' }, { phone: '+27 21 555 0101', emails: [] });
    expect(e).toMatchObject({ verdict: 'MATCH', mismatch: false });
    expect(e.checks).toEqual([
      {
        field: 'phone',
        listing: '021 555 0101',
        applicant: '+27 21 555 0101',
        agrees: true,
        how: 'the same number (E.164)',
      },
    ]);
  });

  it('flags a different phone as a mismatch, even when something else matches', () => {
    const e = compareClaim(
      { phone: '021 555 0101', email: 'Info@Paws.co.za' },
      { phone: '082 555 0199', emails: ['info@paws.co.za'] },
    );
    expect(e.verdict).toBe('MISMATCH');
    expect(e.mismatch).toBe(true);
    expect(e.checks.map((c) => [c.field, c.agrees])).toEqual([
      ['phone', false],
      ['email', true],
    ]);
    expect(e.summary).toBe(
      "Mismatch: the listing's phone differs from what the applicant gave (its email matches); check the claim another way before granting it.",
    );
  });

  it('counts an address at the same own domain, never at a shared mail provider', () => {
    expect(compareClaim({ email: 'info@paws.co.za' }, { emails: ['thandi@paws.co.za'] }).verdict).toBe(
      'MATCH',
    );
    expect(compareClaim({ email: 'paws@gmail.com' }, { emails: ['someone.else@gmail.com'] }).verdict).toBe(
      'MISMATCH',
    );
    expect(compareClaim({ email: 'paws@gmail.com' }, { emails: ['PAWS@gmail.com'] }).verdict).toBe('MATCH');
  });

  it("compares the website's host with the applicant's site and email domains", () => {
    expect(websiteHost('https://www.Paws.co.za/about')).toBe('paws.co.za');
    expect(websiteHost('paws.co.za')).toBe('paws.co.za');
    expect(websiteHost('not a site')).toBeNull();
    expect(
      compareClaim({ website: 'www.paws.co.za' }, { website: 'https://paws.co.za', emails: [] }).verdict,
    ).toBe('MATCH');
    expect(compareClaim({ website: 'paws.co.za' }, { emails: ['me@paws.co.za'] }).checks[0]).toMatchObject({
      agrees: true,
      how: "an email at the site's domain (paws.co.za)",
    });
    expect(compareClaim({ website: 'paws.co.za' }, { emails: ['me@other.example'] }).verdict).toBe(
      'MISMATCH',
    );
    // A gmail address says nothing about a website.
    expect(compareClaim({ website: 'paws.co.za' }, { emails: ['me@gmail.com'] }).verdict).toBe(
      'NOTHING_TO_COMPARE',
    );
  });

  it('has nothing to compare when the listing has no contacts', () => {
    const e = compareClaim({}, { phone: '+27 82 555 0101', emails: ['a@b.example'], website: 'b.example' });
    expect(e).toMatchObject({ verdict: 'NOTHING_TO_COMPARE', mismatch: false, checks: [] });
    expect(e.summary).toMatch(/^Nothing to compare/);
  });
});
