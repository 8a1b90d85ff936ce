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
    expect(await readAll(db.sql, 'fresh')).toEqual(['after-1', 'after-2']);
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
    expect(await readAll(db.sql, 'ordered')).toEqual(['slow', 'quick']);
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
    expect(await readAll(db.sql, 'rollback')).toEqual(['kept']);
  });

  it('two readers each read every event; two takers of one reader never read one event twice', async () => {
    await registerEventReader(db.sql, 'left');
    await registerEventReader(db.sql, 'right');
    const ids = Array.from({ length: 60 }, (_, i) => `e${i}`);
    for (let i = 0; i < ids.length; i += 6) await appendEvents(db.sql, ids.slice(i, i + 6).map(anEvent));
    expect(await readAll(db.sql, 'right')).toEqual(ids);
    // Two takers at once, in batches of 7: between them, each event exactly once, in order.
    const seen: string[][] = [[], []];
    const taker = async (slot: 0 | 1) => {
      for (;;) {
        let got = 0;
        await db.sql.begin(async (tx) => {
          const { events, next } = await takeEvents(tx, 'left', 7);
          got = events.length;
          seen[slot]!.push(...events.map((e) => e.subjectId));
          if (next) await advanceEventReader(tx, 'left', next, new Date());
        });
        if (!got) return;
      }
    };
    await Promise.all([taker(0), taker(1)]);
    expect([...seen[0]!, ...seen[1]!].sort()).toEqual([...ids].sort());
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
    await db.sql`insert into event_readers (name, after_tx, after_seq) values ('digits', '7', 0)`;
    // In small batches, so that a batch ends between the ids whose text order differs.
    const read: string[] = [];
    for (;;) {
      const batch = await db.sql.begin(async (tx) => {
        const { events, next } = await takeEvents(tx, 'digits', 2);
        if (next) await advanceEventReader(tx, 'digits', next, new Date());
        return events.map((e) => e.subjectId);
      });
      if (!batch.length) break;
      read.push(...batch);
    }
    expect(read.filter((s) => s.startsWith('tx-'))).toEqual(subjects);
  });

  it('refuses a reader that was never registered', async () => {
    await expect(db.sql.begin((tx) => takeEvents(tx, 'nobody', 10))).rejects.toThrow(
      'no event reader named nobody',
    );
  });
});
