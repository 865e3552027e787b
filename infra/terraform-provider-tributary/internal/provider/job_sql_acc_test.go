package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const sqlJobAddr = "tributary_job.sql"

// trickleSQL is an unbounded SQL job: a throttled generator counted per key in tumbling windows
// of the given size.
func trickleSQL(size string) string {
	return `SET 'parallelism' = '1';
CREATE TABLE clicks (` + "`key`" + ` BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'datagen', 'keys' = '10', 'interval' = '10ms', 'maxRecordsPerSecond' = '200');
CREATE TABLE counts (` + "`key`" + ` BIGINT, n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO counts
SELECT ` + "`key`" + `, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '` + size + `' SECOND))
GROUP BY ` + "`key`" + `, window_start, window_end;
`
}

func sqlConfig(sql string) string {
	return fmt.Sprintf(`
resource "tributary_job" "sql" {
  name = "sql-trickle"
  sql  = <<-EOT
%s
EOT
}
`, sql)
}

// TestAccSqlJob manages a job written as SQL: created, reformatted to an empty plan (the server
// judges the text), changed, refused with the line and column of an error, and imported.
func TestAccSqlJob(t *testing.T) {
	var version int64
	reformatted := "-- the same job, reformatted\n" + strings.ReplaceAll(trickleSQL("1"), "\n", "\n\n")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providers,
		Steps: []resource.TestStep{
			{
				Config: sqlConfig(trickleSQL("1")),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(sqlJobAddr, "observed_state", "running"),
					resource.TestCheckResourceAttr(sqlJobAddr, "sql", trickleSQL("1")+"\n"),
					resource.TestCheckNoResourceAttr(sqlJobAddr, "spec"),
					resource.TestCheckResourceAttr("tributary_job.sql", "max_parallelism", "128"),
					captureVersionOf(sqlJobAddr, &version),
				),
			},
			{
				Config: sqlConfig(reformatted),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: sqlConfig(trickleSQL("2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(sqlJobAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(sqlJobAddr, "observed_state", "running"),
					resource.TestCheckResourceAttrWith(sqlJobAddr, "version", func(v string) error {
						if v == fmt.Sprint(version) {
							return fmt.Errorf("the version stayed %s: the change was not applied", v)
						}
						return nil
					}),
				),
			},
			{
				Config:      sqlConfig(strings.Replace(trickleSQL("2"), "COUNT(*)", "COUNT(prise)", 1)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid SQL job.*line 6, column 21: Column 'prise' not found in\s+any table`),
			},
			{
				ResourceName:            sqlJobAddr,
				ImportState:             true,
				ImportStateId:           "default/sql-trickle",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}

func captureVersionOf(addr string, version *int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		_, err := fmt.Sscan(s.RootModule().Resources[addr].Primary.Attributes["version"], version)
		return err
	}
}
