// A real SMTP server on loopback for the mail tests: it keeps what it receives, parsed by
// mailparser, and answers 450 for the recipients in `refuse`.
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ParsedMail[];
  /** Addresses (lowercased) the server refuses for now. */
  refuse: Set<string>;
  /**
   * Holds every mail's answer (after its data arrived) until the function returned is called: a
   * slow SMTP server. `holding()` is how many mails are waiting for their answer.
   */
  hold(): () => void;
  holding(): number;
  /** Mails whose data is arriving, being parsed or held: not yet in `received`. */
  inProgress(): number;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ParsedMail[] = [];
  const refuse = new Set<string>();
  let gate: Promise<void> | null = null;
  let waiting = 0;
  let arriving = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(
        refuse.has(address.address.toLowerCase())
          ? Object.assign(new Error('Mailbox unavailable (test)'), { responseCode: 450 })
          : undefined,
      );
    },
    onData(stream, _session, callback) {
      arriving++;
      simpleParser(stream).then(
        async (mail) => {
          if (gate) {
            waiting += 1;
            await gate;
            waiting -= 1;
          }
          arriving--;
          received.push(mail);
          callback();
        },
        (err: Error) => {
          arriving--;
          callback(err);
        },
      );
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    hold() {
      let release = () => {};
      gate = new Promise<void>((r) => {
        release = () => {
          gate = null;
          r();
        };
      });
      return release;
    },
    holding: () => waiting,
    inProgress: () => arriving,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
