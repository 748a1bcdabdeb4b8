/**
 * Starts the real database engines the differential and server suites need. Filled in by the
 * engine setup (PostgreSQL, MariaDB); an engine that cannot start fails the run.
 */
export default async function setup(): Promise<void | (() => Promise<void>)> {}
