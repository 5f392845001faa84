/**
 * Imported first by run.ts. The bench modules size their inputs in module-level constants read from BENCH_QUICK as
 * they load, which is before run.ts parses its arguments: without this, `--quick` ran every module at full size
 * (one round only), so CI's quick figures were full-size single samples.
 */
if (process.argv.includes('--quick')) process.env.BENCH_QUICK = '1';
