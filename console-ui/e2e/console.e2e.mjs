#!/usr/bin/env node
// End-to-end test of the console against a running Tributary server, in Debian's Chromium.
//
//   BASE_URL=http://localhost:8080 TOKEN=trb_... node e2e/console.e2e.mjs
//
// Environment: BASE_URL (required), TOKEN (required), PROJECT (default "default"),
// SCREENSHOT_DIR (default target/screenshots), CHROMIUM (default /usr/bin/chromium),
// E2E_TIMEOUT_MS (how long a job may take to change state; default 120000).
// LIVE_JOB (optional) names a job already applied to the server, the README's live example: its
// watermark lag must be under a minute, its checkpoints must show a duration and a size, and the
// live output of every sink must be one readable table per sink.
// It signs in, looks at the live example, checks a SQL job in the editor (an unknown column marked
// at its line, then the fixed text's plan), creates a throttled Nexmark job (its event time pinned to
// 2026-01-01 by startTime, so its watermark lag is large) in the editor, previews and
// applies it, sees it running with moving charts, stops it with a savepoint, resumes it, and stops
// it again at the end. Exits 0 on success; else prints one line with the reason and exits 1.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const BASE_URL = process.env.BASE_URL;
const TOKEN = process.env.TOKEN;
const PROJECT = process.env.PROJECT || 'default';
const SCREENSHOT_DIR = resolve(process.env.SCREENSHOT_DIR || 'target/screenshots');
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS || 120_000);
const JOB = `e2e-${Date.now().toString(36)}`;
const LIVE_JOB = process.env.LIVE_JOB || '';
const LAG_LIMIT_MS = 60_000;

const SPEC = `name: ${JOB}
parallelism: {initial: 1, min: 1, max: 2}
checkpoints: {interval: 2s}
sources:
  bids:
    type: nexmark
    kind: bid
    startTime: 1767225600000
    maxRecordsPerSecond: 200
    eventTime: {field: dateTime, maxOutOfOrderness: 1s}
operators:
  - id: per-auction
    input: bids
    keyBy: [auction]
    window: {type: tumbling, size: 2s}
    aggregate: {bids: "count(*)", top_price: "max(price)"}
sinks:
  out: {input: per-auction, type: blackhole}
`;

const SQL_JOB = `${JOB}-sql`;
/** A SQL job whose SELECT misreads a column (line 9), and the text with it fixed. */
const BROKEN_SQL = `SET 'name' = '${SQL_JOB}';
CREATE TABLE bids (
  auction BIGINT, price BIGINT, dateTime TIMESTAMP(3),
  WATERMARK FOR dateTime AS dateTime - INTERVAL '1' SECOND
) WITH ('connector' = 'nexmark', 'kind' = 'bid', 'maxRecordsPerSecond' = '200');
CREATE TABLE per_auction (auction BIGINT, bids BIGINT, top_price BIGINT)
  WITH ('connector' = 'blackhole');
INSERT INTO per_auction
SELECT auction, COUNT(*), MAX(prise)
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(dateTime), INTERVAL '2' SECOND))
GROUP BY auction, window_start, window_end;
`;
const FIXED_SQL = BROKEN_SQL.replace('MAX(prise)', 'MAX(price)');

let page;
let shot = 0;
let currentStep = 'start';

function log(message) {
  process.stdout.write(`[console e2e] ${message}\n`);
}

async function screenshot(name) {
  shot += 1;
  const file = join(SCREENSHOT_DIR, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  log(`screenshot ${file}`);
}

async function step(name, action) {
  currentStep = name;
  log(name);
  await action();
}

/** Polls `probe` until it returns a truthy value; no sleeping as synchronisation. */
async function until(what, probe, timeout = TIMEOUT) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
}

async function jobState() {
  return page.locator('h1 [data-state]').first().getAttribute('data-state', { timeout: 5000 }).catch(() => null);
}

async function waitForState(state) {
  await until(`the job to be ${state} (it is ${await jobState()})`, async () => (await jobState()) === state);
}

async function recordsIn() {
  const chart = page.getByTestId('chart-records');
  const points = Number(await chart.getAttribute('data-points'));
  const raw = await page.getByTestId('chart-records-recordsIn').getAttribute('data-value');
  return { points, value: raw === '' || raw === null ? null : Number(raw) };
}

/** The newest value a chart shows (its `data-value`), or null while it has none. */
async function chartValue(testId) {
  const raw = await page.getByTestId(testId).getAttribute('data-value').catch(() => null);
  return raw === '' || raw === null ? null : Number(raw);
}

/**
 * The header rows of every live output table, with the top edge of each header cell: a header
 * row is laid out in one line when all its cells share one top edge.
 */
async function outputHeaders() {
  return page.locator('table[aria-label^="Live output of "]').evaluateAll((tables) =>
    tables.map((t) => ({
      name: t.getAttribute('aria-label'),
      headerRows: t.querySelectorAll('thead tr').length,
      tops: Array.from(t.querySelectorAll('thead th')).map((th) => Math.round(th.getBoundingClientRect().top)),
      columns: Array.from(t.querySelectorAll('thead th')).map((th) => th.textContent),
      rows: t.querySelectorAll('tbody tr').length,
      firstRow: Array.from(t.querySelectorAll('tbody tr:first-child td')).map((td) => td.textContent),
    })),
  );
}

/** The README's live example: lag under a minute, checkpoint figures, one table per sink. */
async function liveExample() {
  await step(`open the live example ${LIVE_JOB}`, async () => {
    await page.getByRole('link', { name: LIVE_JOB, exact: true }).click();
    await page.waitForURL((url) => url.hash === `#/jobs/${PROJECT}/${LIVE_JOB}`);
    await waitForState('running');
  });

  await step('see its watermark lag under a minute', async () => {
    const lag = await until('a watermark lag', async () => chartValue('chart-watermark-lag-watermarkLag'), 60_000);
    if (lag >= LAG_LIMIT_MS) throw new Error(`the live example's watermark lag is ${lag} ms, not under a minute`);
    const jobs = await page.request.get(new URL(`/v1/projects/${PROJECT}/jobs/${LIVE_JOB}/metrics`, BASE_URL).href, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const apiLag = (await jobs.json()).watermarkLagMillis;
    if (!(apiLag < LAG_LIMIT_MS)) throw new Error(`GET .../metrics says the watermark lags ${apiLag} ms`);
    log(`watermark lag ${lag} ms in the console, ${apiLag} ms in the API`);
    await until('the records-in chart to have a few samples', async () =>
      Number(await page.getByTestId('chart-records').getAttribute('data-points')) >= 4, 30_000);
    await screenshot('live-overview');
  });

  await step('see its checkpoints with a duration and a size', async () => {
    await page.getByRole('tab', { name: 'Checkpoints' }).click();
    const table = page.getByRole('table', { name: 'Checkpoints' });
    const row = await until('a completed checkpoint with its figures', async () => {
      const rows = await table.locator('tbody tr').filter({ hasText: 'completed' }).all().catch(() => []);
      for (const r of rows) {
        const duration = (await r.getByTestId('checkpoint-duration').textContent())?.trim();
        const size = (await r.getByTestId('checkpoint-size').textContent())?.trim();
        if (duration && duration !== '—' && size && size !== '—') return { duration, size };
      }
      return null;
    }, 60_000);
    if (!/\d+(\.\d)? (ms|s)$/.test(row.duration)) throw new Error(`a checkpoint's duration reads "${row.duration}"`);
    if (!/\d+(\.\d)? (B|KiB|MiB|GiB)$/.test(row.size)) throw new Error(`a checkpoint's size reads "${row.size}"`);
    log(`a completed checkpoint took ${row.duration} and holds ${row.size}`);
    await screenshot('live-checkpoints');
  });

  await step('see the live output of every sink, one table each', async () => {
    await page.getByRole('tab', { name: 'Live output' }).click();
    const select = page.getByRole('combobox', { name: 'Operator' });
    if ((await select.inputValue()) !== '') throw new Error('the live output does not start with every sink');
    const tables = await until('a table with records for each of the two sinks', async () => {
      const t = await outputHeaders();
      return t.length >= 2 && t.every((x) => x.rows > 0) ? t : null;
    }, 60_000);
    for (const t of tables) {
      if (t.headerRows !== 1) throw new Error(`${t.name} has ${t.headerRows} header rows`);
      if (new Set(t.tops).size !== 1) throw new Error(`the header of ${t.name} is not one row: tops ${t.tops.join(', ')}`);
      const at = t.columns.indexOf('window_start');
      if (at < 0) throw new Error(`${t.name} has no window_start column: ${t.columns.join(', ')}`);
      const shown = t.firstRow[at] ?? '';
      if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.test(shown)) throw new Error(`window_start in ${t.name} reads "${shown}"`);
      log(`${t.name}: one header row (${t.columns.join(', ')}), window_start shown as ${shown}`);
    }
    await screenshot('live-output');
  });
}

async function main() {
  if (!BASE_URL || !TOKEN) throw new Error('set BASE_URL and TOKEN');
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 960 } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const jobUrl = `#/jobs/${PROJECT}/${JOB}`;

    await step('sign in', async () => {
      await page.goto(new URL('/', BASE_URL).href);
      await screenshot('login');
      await page.getByLabel('API token').fill(TOKEN);
      await page.getByLabel('Project').fill(PROJECT);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
      if (LIVE_JOB) {
        const row = page.locator(`tr[data-job="${LIVE_JOB}"]`);
        await until(`${LIVE_JOB} in the jobs table with its figures`, async () =>
          (await row.count()) > 0 && !(await row.locator('td').nth(4).textContent())?.includes('—'), 30_000);
        const cells = await row.locator('td').allTextContents();
        log(`the jobs table shows ${cells.map((c) => c.trim()).join(' | ')}`);
      }
      await screenshot('jobs');
    });

    if (LIVE_JOB) await liveExample();

    await step('check a SQL job in the editor: its error marked at its line, then its plan', async () => {
      await page.getByRole('link', { name: 'New job' }).click();
      await page.getByRole('tab', { name: 'SQL' }).click();
      const editor = page.locator('.cm-content');
      const replaceText = async (text) => {
        await editor.click();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Delete');
        await page.keyboard.insertText(text);
      };
      await editor.waitFor();
      await replaceText(BROKEN_SQL);
      await page.getByRole('button', { name: 'Check and preview plan' }).click();
      const error = page.getByRole('list', { name: 'Spec errors' });
      await error.waitFor();
      const listed = (await error.textContent()) ?? '';
      if (!listed.includes("Line 9") || !listed.includes("Column 'prise' not found")) {
        throw new Error(`the errors list says "${listed}", expected line 9 and the unknown column`);
      }
      const marked = await page.locator('.cm-lintRange-error').first().textContent();
      if (marked !== 'prise') throw new Error(`the editor marks "${marked}", expected "prise"`);
      await screenshot('editor-sql-error');
      await replaceText(FIXED_SQL);
      await page.getByRole('button', { name: 'Check and preview plan' }).click();
      await page.getByTestId('plan-preview').waitFor();
      log(`the SQL job plans: ${(await page.getByTestId('plan-preview').textContent())?.slice(0, 80)}…`);
      await screenshot('editor-sql-plan');
      await page.getByRole('link', { name: 'Jobs' }).first().click();
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
    });

    await step(`create job ${JOB} in the editor`, async () => {
      await page.getByRole('link', { name: 'New job' }).click();
      const editor = page.locator('.cm-content');
      await editor.waitFor();
      await editor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(SPEC);
      await page.getByRole('button', { name: 'Check and preview plan' }).click();
      await page.getByTestId('plan-preview').waitFor();
      const change = await page.getByTestId('plan-change').textContent().catch(() => null);
      if (change !== null && change.trim() !== 'create') throw new Error(`the plan says "${change}", expected "create"`);
      await screenshot('editor-plan');
      await page.getByRole('button', { name: 'Create job' }).click();
      await page.waitForURL((url) => url.hash === jobUrl);
    });

    await step('see it running', async () => {
      await waitForState('running');
      await page.getByRole('img', { name: /Execution graph/ }).waitFor();
    });

    await step('see its charts move', async () => {
      const first = await until('a records-in rate above 0', async () => {
        const r = await recordsIn();
        return r.value !== null && r.value > 0 ? r : null;
      });
      const second = await until('the records-in chart to move', async () => {
        const r = await recordsIn();
        if (r.value !== null && r.value !== first.value) return r;
        return r.points >= first.points + 3 && r.value !== null && r.value > 0 ? r : null;
      }, 60_000);
      log(
        second.value !== first.value
          ? `records in went from ${first.value}/s to ${second.value}/s`
          : `records in steady at ${second.value}/s while the chart advanced ${second.points - first.points} samples`,
      );
      // its startTime pins event time to 2026-01-01: the lag is large, and its chart's labels must fit
      const lag = await until('a watermark lag', async () => chartValue('chart-watermark-lag-watermarkLag'), 30_000);
      if (!(lag > 86_400_000)) throw new Error(`with startTime 2026-01-01 the watermark lags only ${lag} ms`);
      log(`with a pinned startTime the watermark lags ${Math.round(lag / 86_400_000)} days`);
      await screenshot('job-running');
    });

    await step('see its live output and events', async () => {
      await page.getByRole('tab', { name: 'Live output' }).click();
      // Live output is shown, not required: a job may produce no record within the wait.
      const live = await until('the output stream', async () =>
        (await page.getByTestId('output-status').textContent())?.trim() === 'live', 15_000).catch(() => false);
      const rows = live
        ? await until('an output record', async () =>
            (await page.locator('table[aria-label^="Live output of "] tbody tr').count()) > 0, 10_000).catch(() => false)
        : false;
      log(live ? (rows ? 'live output shows records' : 'live output connected, no record yet') : 'live output did not connect');
      await screenshot('job-output');
      await page.getByRole('tab', { name: 'Events' }).click();
      await page.getByRole('list', { name: 'Events' }).waitFor();
      await screenshot('job-events');
      await page.getByRole('tab', { name: 'Overview' }).click();
    });

    await step('stop it with a savepoint', async () => {
      await page.getByRole('button', { name: 'Stop…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Stop the job' });
      if (!(await dialog.getByRole('checkbox', { name: /Take a savepoint first/ }).isChecked())) {
        throw new Error('the stop dialog does not offer a savepoint by default');
      }
      await dialog.getByRole('button', { name: 'Take savepoint and stop' }).click();
      await waitForState('stopped');
      await page.getByRole('tab', { name: 'Checkpoints' }).click();
      const savepoints = page.getByRole('table', { name: 'Savepoints' });
      await until('a completed savepoint taken by the stop', async () =>
        (await savepoints.locator('tr', { hasText: 'stop' }).filter({ hasText: 'completed' }).count()) > 0,
      );
      await screenshot('job-stopped-savepoints');
    });

    await step('resume it', async () => {
      await page.getByRole('button', { name: 'Resume…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Resume the job' });
      await dialog.getByRole('radio', { name: /Latest state/ }).check();
      await dialog.getByRole('button', { name: 'Resume' }).click();
      await waitForState('running');
      await page.getByRole('tab', { name: 'Overview' }).click();
      await screenshot('job-resumed');
    });

    await step('clean up', async () => {
      const response = await page.request.post(new URL(`/v1/projects/${PROJECT}/jobs/${JOB}/stop`, BASE_URL).href, {
        headers: { Authorization: `Bearer ${TOKEN}` },
        data: { savepoint: false },
      });
      if (!response.ok()) log(`could not stop ${JOB} at the end: HTTP ${response.status()}`);
    });
    log(`passed: ${JOB}`);
  } finally {
    if (page) await screenshot('last').catch(() => undefined);
    await browser.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    const reason = String(error?.message ?? error).split('\n')[0];
    process.stderr.write(`console e2e failed at "${currentStep}": ${reason}\n`);
    process.exit(1);
  },
);
