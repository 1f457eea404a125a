import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';

/** Beyond the graces, what closing the database and the sweeps may take before giving up. */
const CLOSE_MARGIN_SECONDS = 30;

export interface ShutdownParts {
  app: FastifyInstance;
  services: Services;
  stopSweeps: () => Promise<void>;
  exit?: (code: number) => void;
}

/**
 * Stops the server in order: readiness fails and no new connection is accepted; requests in
 * flight finish (uploads within CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS, others within
 * CAIRN_SHUTDOWN_GRACE_SECONDS, then they are cut); the sweeps stop, waiting for a round that
 * runs; DOI registrations and e-mail in flight finish; the store's and database's connections close.
 */
export async function shutdown({ app, services, stopSweeps }: ShutdownParts): Promise<void> {
  const { shutdownGraceSeconds, shutdownUploadGraceSeconds } = services.config.operations;
  const running = app.operations.inFlight();
  app.log.info(
    `shutting down: ${running.uploads} uploads and ${running.others} other requests in flight`,
  );
  app.operations.beginDrain(shutdownGraceSeconds, shutdownUploadGraceSeconds);
  const sweeps = stopSweeps();
  // Stops accepting connections and resolves once every connection has ended.
  await app.close();
  await sweeps;
  await services.doi.idle();
  services.mail.stop();
  await services.mail.idle();
  (services.store as { close?: () => void }).close?.();
  await services.database.close();
  app.log.info('shut down');
}

/**
 * SIGTERM and SIGINT start `shutdown`, and the process exits 0 when it is done, 1 when it
 * failed or did not finish in time. A second signal exits at once (an operator's second Ctrl-C).
 */
export function handleShutdownSignals(parts: ShutdownParts): void {
  const exit = parts.exit ?? ((code: number) => process.exit(code));
  const { app } = parts;
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      app.log.warn(`${signal} again: exiting without waiting`);
      exit(1);
      return;
    }
    started = true;
    app.log.info(`${signal} received`);
    const { shutdownGraceSeconds, shutdownUploadGraceSeconds } = parts.services.config.operations;
    const limit = Math.max(shutdownGraceSeconds, shutdownUploadGraceSeconds) + CLOSE_MARGIN_SECONDS;
    const watchdog = setTimeout(() => {
      app.log.error(`shutdown did not finish within ${limit} s: exiting`);
      exit(1);
    }, limit * 1000);
    watchdog.unref();
    shutdown(parts).then(
      () => exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
