#!/usr/bin/env node
// End-to-end test of the console against a running Tributary server, in Debian's Chromium.
//
//   BASE_URL=http://localhost:8080 TOKEN=trb_... node e2e/console.e2e.mjs
//
// Environment: BASE_URL (required), TOKEN (required), PROJECT (default "default"),
// SCREENSHOT_DIR (default target/screenshots), CHROMIUM (default /usr/bin/chromium),
// E2E_TIMEOUT_MS (how long a job may take to change state; default 120000).
// It signs in, creates a throttled Nexmark job in the editor, previews and applies it, sees it
// running with moving charts, stops it with a savepoint, resumes it, and stops it again at the end.
// Exits 0 on success; else prints one line with the reason and exits 1.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const BASE_URL = process.env.BASE_URL;
const TOKEN = process.env.TOKEN;
const PROJECT = process.env.PROJECT || 'default';
const SCREENSHOT_DIR = resolve(process.env.SCREENSHOT_DIR || 'target/screenshots');
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS || 120_000);
const JOB = `e2e-${Date.now().toString(36)}`;

const SPEC = `name: ${JOB}
parallelism: {initial: 1, min: 1, max: 2}
checkpoints: {interval: 2s}
sources:
  bids:
    type: nexmark
    kind: bid
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
      await screenshot('jobs');
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
      await screenshot('job-running');
    });

    await step('see its live output and events', async () => {
      await page.getByRole('tab', { name: 'Live output' }).click();
      // Live output is shown, not required: a job may produce no record within the wait.
      const live = await until('the output stream', async () =>
        (await page.getByTestId('output-status').textContent())?.trim() === 'live', 15_000).catch(() => false);
      const rows = live
        ? await until('an output record', async () =>
            (await page.getByRole('table', { name: 'Live output' }).locator('tbody tr').count()) > 0, 10_000).catch(() => false)
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
