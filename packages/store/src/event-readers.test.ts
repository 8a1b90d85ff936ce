import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceEventReader, registerEventReader, takeEvents } from './event-readers.js';
import { appendEvents, type NewDomainEvent } from './events.js';
import type { Sql } from './sql.js';
import { availableServers, createTestDatabase, type TestDatabase } from './testing/index.js';

function anEvent(subjectId: string): NewDomainEvent {
  return {
    type: 'booking.created',
    version: 1,
    occurredAt: new Date('2026-12-07T10:00:00Z'),
    businessId: 'biz_reader',
    personId: null,
    subjectKind: 'booking',
    subjectId,
    actor: { kind: 'system', userId: null, clientName: null },
    data: {},
    operation: null,
    requestId: null,
    callId: null,
  };
}

/** What reader `name` takes now and moves past: the subject ids, in order. */
async function readAll(sql: Sql, name: string): Promise<string[]> {
  let answer: string[] = [];
  await sql.begin(async (tx) => {
    const { events, next } = await takeEvents(tx, name, 1000);
    if (next) await advanceEventReader(tx, name, next, new Date());
    answer = events.map((e) => e.subjectId);
  });
  return answer;
}

/**
 * Reads with `name` until `n` events were read (a transaction open anywhere in the cluster, say
 * another test's, holds the newest back for a while): all read, in order.
 */
async function readUntil(sql: Sql, name: string, n: number): Promise<string[]> {
  const read: string[] = [];
  const deadline = Date.now() + 60_000;
  while (read.length < n) {
    read.push(...(await readAll(sql, name)));
    if (read.length >= n) break;
    if (Date.now() > deadline) throw new Error(`${name} read ${read.length} of ${n} events`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return read;
}

describe.each(availableServers())('reading the domain events on %s PostgreSQL', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ kind });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a new reader starts with the events written after it, not history', async () => {
    await appendEvents(db.sql, [anEvent('before')]);
    await registerEventReader(db.sql, 'fresh');
    await registerEventReader(db.sql, 'fresh'); // registering again changes nothing
    await appendEvents(db.sql, [anEvent('after-1'), anEvent('after-2')]);
    expect(await readUntil(db.sql, 'fresh', 2)).toEqual(['after-1', 'after-2']);
    expect(await readAll(db.sql, 'fresh')).toEqual([]);
  });

  it('does not read the events of a transaction still open, and misses none that commit out of order', async () => {
    await registerEventReader(db.sql, 'ordered');
    // A takes its sequence number first but commits last.
    const slow = await db.sql.reserve();
    try {
      await slow`begin`;
      await appendEvents(slow, [anEvent('slow')]);
      await appendEvents(db.sql, [anEvent('quick')]);
      // The open transaction holds the horizon: nothing after it is final yet, so nothing is read.
      expect(await readAll(db.sql, 'ordered')).toEqual([]);
      await slow`commit`;
    } finally {
      slow.release();
    }
    expect(await readUntil(db.sql, 'ordered', 2)).toEqual(['slow', 'quick']);
  });

  it('a rolled-back change leaves nothing to read', async () => {
    await registerEventReader(db.sql, 'rollback');
    await db.sql
      .begin(async (tx) => {
        await appendEvents(tx, [anEvent('undone')]);
        throw new Error('the change failed');
      })
      .catch(() => {});
    await appendEvents(db.sql, [anEvent('kept')]);
    // Had the rolled-back event been written, it would be read before the one after it.
    expect(await readUntil(db.sql, 'rollback', 1)).toEqual(['kept']);
  });

  it('two readers each read every event; two takers of one reader never read one event twice', async () => {
    await registerEventReader(db.sql, 'left');
    await registerEventReader(db.sql, 'right');
    const ids = Array.from({ length: 60 }, (_, i) => `e${i}`);
    for (let i = 0; i < ids.length; i += 6) await appendEvents(db.sql, ids.slice(i, i + 6).map(anEvent));
    expect(await readUntil(db.sql, 'right', ids.length)).toEqual(ids);
    // Two takers at once, in batches of 7: between them, each event exactly once, in order.
    const seen: string[][] = [[], []];
    const deadline = Date.now() + 60_000;
    const taker = async (slot: 0 | 1) => {
      for (;;) {
        let got = 0;
        await db.sql.begin(async (tx) => {
          const { events, next } = await takeEvents(tx, 'left', 7);
          got = events.length;
          seen[slot]!.push(...events.map((e) => e.subjectId));
          if (next) await advanceEventReader(tx, 'left', next, new Date());
        });
        if (!got && seen[0]!.length + seen[1]!.length >= ids.length) return;
        if (!got && Date.now() > deadline) return;
        if (!got) await new Promise((r) => setTimeout(r, 50));
      }
    };
    await Promise.all([taker(0), taker(1)]);
    expect([...seen[0]!, ...seen[1]!].sort()).toEqual([...ids].sort());
  });

  it('reads in transaction order across a change of digits (tx 9 before tx 10), a pass at a time', async () => {
    await registerEventReader(db.sql, 'digits');
    await db.sql`update event_readers set after_tx = '1'::xid8, after_seq = 0 where name = 'digits'`;
    // Transaction ids long final, one below a power of ten and one at it (the column's default is
    // the writing transaction's id; given here so the test need not burn ids up to a boundary).
    for (const [subject, tx] of [
      ['tx-ten', '10'],
      ['tx-nine', '9'],
    ] as const)
      await db.sql`insert into domain_events (id, type, version, occurred_at, subject_kind, subject_id, actor, data, tx)
        values (${`evt_${subject}`}, 'booking.created', 1, now(), 'booking', ${subject}, '{"kind": "system"}', '{}', ${tx}::xid8)`;
    const onePass = async () => {
      let read: string[] = [];
      await db.sql.begin(async (tx) => {
        const { events, next } = await takeEvents(tx, 'digits', 1);
        if (next) await advanceEventReader(tx, 'digits', next, new Date());
        read = events.map((e) => e.subjectId);
      });
      return read;
    };
    const first = await onePass();
    const second = await onePass();
    expect([...first, ...second].filter((id) => id.startsWith('tx-'))).toEqual(['tx-nine', 'tx-ten']);
  });

  it('reads transaction ids in number order where they cross a power of ten (99 before 100)', async () => {
    // Ids set on the rows, below any a running transaction can have (a fresh cluster is past a few
    // hundred after initdb), with the reader's bookmark just before them; the database's own events
    // have larger ids and come after these.
    const subjects = ['tx-8', 'tx-9', 'tx-10', 'tx-11', 'tx-99', 'tx-100'];
    for (const s of subjects)
      await db.sql`insert into domain_events (id, type, version, occurred_at, subject_kind, subject_id, actor, data, tx)
        values (${`evt_${s}`}, 'booking.created', 1, now(), 'booking', ${s}, '{"kind": "system"}', '{}',
          ${s.slice(3)}::xid8)`;
    await db.sql`insert into event_readers (name, after_tx, after_seq) values ('digits-hundred', '7', 0)`;
    // In small batches, so that a batch ends between the ids whose text order differs.
    const read: string[] = [];
    for (;;) {
      const batch = await db.sql.begin(async (tx) => {
        const { events, next } = await takeEvents(tx, 'digits-hundred', 2);
        if (next) await advanceEventReader(tx, 'digits-hundred', next, new Date());
        return events.map((e) => e.subjectId);
      });
      if (!batch.length) break;
      read.push(...batch);
    }
    expect(read.filter((s) => subjects.includes(s))).toEqual(subjects);
  });

  it('refuses a reader that was never registered', async () => {
    await expect(db.sql.begin((tx) => takeEvents(tx, 'nobody', 10))).rejects.toThrow(
      'no event reader named nobody',
    );
  });
});
