/**
 * The scheduled functions on this machine. `netlify serve` does not run them by their schedule, but
 * a POST to /.netlify/functions/{name} runs one as Netlify's scheduler would (netlify-cli answers
 * with a note instead of the function's body). This ticker does that once a minute for every
 * function whose `schedule` (read from netlify/functions/*.mts) is due, so that letters, reminders,
 * follow-ups and updates go out locally as they do when deployed.
 *
 * LOCAL_SCHEDULE: `all` (the default), `off`, or a comma list of function names (e.g. mail-deliver).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const functionsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'netlify', 'functions');

/** Netlify's shorthands, as cron expressions. */
const SHORTHANDS = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Whether one cron field (`*`, `*\/n`, `a`, `a-b`, `a,b`, `a-b/n`) holds a value. */
function fieldMatches(field, value) {
  return field.split(',').some((part) => {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (range === '*') return value % step === 0;
    const [low, high = stepText === undefined ? low : 59] = range.split('-').map(Number);
    return value >= low && value <= high && (value - low) % step === 0;
  });
}

/** Whether a five-field cron expression (UTC, as Netlify reads it) is due in the minute of `date`. */
export function cronDue(expression, date) {
  const fields = (SHORTHANDS[expression] ?? expression).trim().split(/\s+/);
  if (fields.length !== 5) return false;
  const values = [date.getUTCMinutes(), date.getUTCHours(), date.getUTCDate(), date.getUTCMonth() + 1, date.getUTCDay()];
  return fields.every((field, index) => fieldMatches(field, values[index]));
}

/** Every scheduled function: its name and schedule, as its source declares them. */
export function scheduledFunctions() {
  return readdirSync(functionsDir)
    .filter((file) => /\.m?[jt]s$/.test(file))
    .flatMap((file) => {
      const schedule = /\bschedule:\s*['"]([^'"]+)['"]/.exec(readFileSync(join(functionsDir, file), 'utf8'))?.[1];
      return schedule ? [{ name: file.replace(/\.m?[jt]s$/, ''), schedule }] : [];
    });
}

/** The functions LOCAL_SCHEDULE asks for. */
export function chosenFunctions(setting = process.env.LOCAL_SCHEDULE ?? 'all') {
  const value = setting.trim().toLowerCase();
  if (value === 'off') return [];
  const all = scheduledFunctions();
  if (value === 'all' || value === '') return all;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !all.some((fn) => fn.name === name));
  if (unknown.length) throw new Error(`LOCAL_SCHEDULE names no scheduled function: ${unknown.join(', ')} (they are ${all.map((fn) => fn.name).join(', ')}).`);
  return all.filter((fn) => names.includes(fn.name));
}

/** Runs one scheduled function now; true when it ran (netlify-cli answers 200, or 500 when it threw). */
export async function runScheduled(origin, name) {
  const response = await fetch(`${origin}/.netlify/functions/${name}`, { method: 'POST' });
  await response.arrayBuffer();
  return response.ok;
}

/**
 * Starts the ticker: at the start of every minute, each chosen function that is due runs (one at a
 * time, so a slow run never overlaps the next). Returns `stop`.
 */
export function startTicker(origin, functions = chosenFunctions(), log = console) {
  if (functions.length === 0) return { stop: () => undefined };
  let stopped = false;
  let timer;
  const tick = async () => {
    const now = new Date();
    for (const { name, schedule } of functions) {
      if (stopped || !cronDue(schedule, now)) continue;
      try {
        if (!(await runScheduled(origin, name))) log.warn(`[schedule] ${name} failed (see its log above)`);
      } catch (error) {
        log.warn(`[schedule] ${name} could not be called: ${error instanceof Error ? error.message : error}`);
      }
    }
    if (!stopped) timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
  };
  timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
