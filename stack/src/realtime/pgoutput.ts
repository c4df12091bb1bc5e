import type pg from 'pg';
import { PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';

/** pgoutput prints values with the session's settings; these make them match what to_jsonb expects. */
export const OUTPUT_SETTINGS = '-c TimeZone=UTC -c DateStyle=ISO,MDY -c IntervalStyle=postgres -c bytea_output=hex';

/**
 * pgoutput through pg-logical-replication, with two changes: values stay in Postgres's text form (the
 * library would run node-postgres's parsers, which turn timestamps into millisecond Dates), and the slot
 * is created TEMPORARY on the replication connection just before streaming starts.
 */
export class TemporarySlotPgoutput extends PgoutputPlugin {
  override parse(buffer: Buffer): Pgoutput.Message {
    const message = super.parse(buffer);
    // The parser keeps the relation and reads every later tuple with these parsers.
    if (message.tag === 'relation') for (const column of message.columns) column.parser = (text: string) => text;
    return message;
  }

  override async start(client: pg.Client, slotName: string, lastLsn: string): Promise<unknown> {
    await client.query(`CREATE_REPLICATION_SLOT "${slotName}" TEMPORARY LOGICAL pgoutput NOEXPORT_SNAPSHOT`);
    return super.start(client, slotName, lastLsn);
  }
}
