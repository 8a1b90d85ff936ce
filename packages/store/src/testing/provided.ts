declare module 'vitest' {
  export interface ProvidedContext {
    /** Server URL of the embedded PostgreSQL started for this test run, or '' when none was started. */
    embeddedServerUrl: string;
  }
}

export {};
