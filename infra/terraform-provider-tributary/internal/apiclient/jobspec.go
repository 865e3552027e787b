// Package apiclient is the Tributary REST client generated from openapi/tributary.yaml by this
// module's pom.xml (mvn pre-integration-test); only this file is written by hand.
package apiclient

import "encoding/json"

// JobSpec is a job spec as raw JSON, in the order the user wrote it. The contract's JobSpec
// schema documents it; the generator is told not to model it (see pom.xml), because a Go struct
// would drop the connectors' own fields and Go maps would reorder sources, sinks, select and
// aggregate, which the server takes as a change of the job.
type JobSpec = json.RawMessage
