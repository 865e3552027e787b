// Names for the contract's schemas. The types themselves are generated from
// ../openapi/tributary.yaml into schema.d.ts by `npm run gen` and never edited or committed.
import type { components } from './schema';

type Schemas = components['schemas'];

export type Job = Schemas['Job'];
export type JobSpec = Schemas['JobSpec'];
export type JobList = Schemas['JobList'];
export type JobApply = Schemas['JobApply'];
export type JobMetrics = Schemas['JobMetrics'];
export type OperatorMetrics = Schemas['OperatorMetrics'];
export type JobEvent = Schemas['JobEvent'];
export type JobEventList = Schemas['JobEventList'];
export type JobFailure = Schemas['JobFailure'];
export type ObservedState = Schemas['ObservedState'];
export type DesiredState = Schemas['DesiredState'];
export type RestorePolicy = Schemas['RestorePolicy'];
export type Checkpoint = Schemas['Checkpoint'];
export type CheckpointList = Schemas['CheckpointList'];
export type Savepoint = Schemas['Savepoint'];
export type SavepointList = Schemas['SavepointList'];
export type ExecutionPlan = Schemas['ExecutionPlan'];
export type PlanStage = Schemas['PlanStage'];
export type PlanEdge = Schemas['PlanEdge'];
export type Project = Schemas['Project'];
export type ProjectList = Schemas['ProjectList'];
export type Problem = Schemas['Problem'];
export type FieldError = Schemas['FieldError'];
export type StopRequest = Schemas['StopRequest'];
export type RescaleRequest = Schemas['RescaleRequest'];

/**
 * The data of one `record` event of the live output stream (GET .../jobs/{name}/output,
 * text/event-stream). The contract describes it in prose, so it has no generated type.
 */
export interface OutputRecord {
  operatorId: string;
  at: string;
  value: Record<string, unknown>;
}
