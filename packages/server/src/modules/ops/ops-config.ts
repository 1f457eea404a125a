import { z } from 'zod';

/** The environment variables of health, metrics and shutdown; spread into the config's schema. */
export const OperationsEnv = {
  CAIRN_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  CAIRN_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(10),
  CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS: z.coerce.number().min(0).default(60),
  CAIRN_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
};

export interface OperationsConfig {
  /** Where Prometheus scrapes `/metrics` (on HOST); undefined: no metrics at all. */
  readonly metricsPort?: number;
  /** How long a request other than an upload may still run once shutdown has begun. */
  readonly shutdownGraceSeconds: number;
  /** How long an upload in flight may still run once shutdown has begun. */
  readonly shutdownUploadGraceSeconds: number;
  /**
   * How far the JavaScript heap may grow past what it held alive at its last full collection
   * before it collects again, in percent; 0 leaves it to V8.
   */
  readonly heapGrowthPercent: number;
}

export function operationsConfig(e: {
  CAIRN_METRICS_PORT?: number | undefined;
  CAIRN_SHUTDOWN_GRACE_SECONDS: number;
  CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS: number;
  CAIRN_HEAP_GROWTH_PERCENT: number;
}): OperationsConfig {
  return {
    ...(e.CAIRN_METRICS_PORT === undefined ? {} : { metricsPort: e.CAIRN_METRICS_PORT }),
    shutdownGraceSeconds: e.CAIRN_SHUTDOWN_GRACE_SECONDS,
    shutdownUploadGraceSeconds: e.CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS,
    heapGrowthPercent: e.CAIRN_HEAP_GROWTH_PERCENT,
  };
}

/** The metrics listener needs a port of its own: on the app's it could never bind. */
export function operationsProblems(env: NodeJS.ProcessEnv): string[] {
  const metrics = env.CAIRN_METRICS_PORT;
  return metrics !== undefined && metrics !== '' && Number(metrics) === Number(env.PORT ?? 5000)
    ? ['CAIRN_METRICS_PORT: must differ from PORT']
    : [];
}
