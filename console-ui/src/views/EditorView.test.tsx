// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../api/client';
import { ApiContext } from '../api/context';
import type { ExecutionPlan, Job } from '../api/types';
import { clicksPlan, job } from '../test/fixtures';
import { EditorView } from './EditorView';
import { NEW_SQL_TEMPLATE } from './templates';

function renderEditor(api: Partial<Api>, name: string | null = null) {
  render(
    <ApiContext.Provider value={api as Api}>
      <EditorView project="default" name={name} />
    </ApiContext.Provider>,
  );
  return userEvent.setup();
}

const plan: ExecutionPlan = { ...clicksPlan, jobName: 'my-job', change: { action: 'create' } };

describe('EditorView with SQL', () => {
  it('plans a new SQL job and creates it under the name its plan gives', async () => {
    const planSql = vi.fn(async () => plan);
    const applyJob = vi.fn(async () => job({ name: 'my-job' }));
    const user = renderEditor({ planSql, applyJob });

    await user.click(screen.getByRole('tab', { name: 'SQL' }));
    await user.click(screen.getByRole('button', { name: 'Check and preview plan' }));
    await screen.findByTestId('plan-preview');
    expect(planSql).toHaveBeenCalledWith('default', NEW_SQL_TEMPLATE, undefined);

    await user.click(screen.getByRole('button', { name: 'Create job' }));
    expect(applyJob).toHaveBeenCalledWith('default', 'my-job', { sql: NEW_SQL_TEMPLATE }, { createOnly: true });
  });

  it('lists each error of the SQL at its line', async () => {
    const problem = {
      type: 'urn:tributary:problem:invalid-spec', title: 'Invalid job spec', status: 400,
      detail: "/sql (line 11, column 8): Column 'prise' not found in any table",
      errors: [{ pointer: '/sql', line: 11, column: 8, message: "Column 'prise' not found in any table" }],
    };
    const planSql = vi.fn(async () => {
      throw new ApiError(400, problem, problem.detail);
    });
    const user = renderEditor({ planSql });

    await user.click(screen.getByRole('tab', { name: 'SQL' }));
    await user.click(screen.getByRole('button', { name: 'Check and preview plan' }));

    const errors = await screen.findByRole('list', { name: 'Spec errors' });
    expect(errors.textContent).toBe("Line 11 Column 'prise' not found in any table");
    expect(screen.getByRole('button', { name: 'Create job' }).hasAttribute('disabled')).toBe(true);
  });

  it('edits a job applied as SQL as its SQL, planned under its name', async () => {
    const applied: Job = job({ name: 'hot', version: 4, sql: NEW_SQL_TEMPLATE.replace("'my-job'", "'hot'") });
    const planSql = vi.fn(async () => ({ ...plan, jobName: 'hot', change: { action: 'none' as const } }));
    const applyJob = vi.fn(async () => applied);
    const user = renderEditor({ getJob: vi.fn(async () => applied), planSql, applyJob }, 'hot');

    await screen.findByRole('heading', { name: 'Edit hot' });
    expect(screen.queryByRole('tab', { name: 'SQL' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check and preview plan' }));
    await waitFor(() => expect(planSql).toHaveBeenCalledWith('default', applied.sql, 'hot'));
    await user.click(await screen.findByRole('button', { name: 'Apply changes' }));
    expect(applyJob).toHaveBeenCalledWith('default', 'hot', { sql: applied.sql }, { ifMatch: 4 });
  });
});
