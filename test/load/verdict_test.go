package load

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynaloom/internal/designer"
	"dynaloom/test/dynalite"
)

// dynaliteReset is the anchor of edit → verdict: what it takes to see the same verdicts without
// Dynaloom. It starts dynalite, then up to n times deletes d's tables, creates them again, puts the
// sample items and runs every pattern's Query through the SDK. why says what is missing when
// dynalite is not installed.
func dynaliteReset(t *testing.T, ctx context.Context, d designer.Design, n int, limit time.Duration) (timings, string) {
	node, cli, why := dynalite.Find(dynaliteCLI)
	if why != "" {
		return nil, why
	}
	dyn := dynalite.Start(ctx, t, node, cli)
	reads := queries(d)
	return repeat(t, n, limit, func(int) error {
		for _, tbl := range d.Tables {
			if err := deleteTable(ctx, dyn, tbl.Name); err != nil {
				return err
			}
		}
		dynalite.Load(ctx, t, dyn, d)
		for _, q := range reads {
			if _, err := dyn.SDK.Query(ctx, q); err != nil {
				return err
			}
		}
		return nil
	}), ""
}

// deleteTable deletes a table, if there is one, and waits until it is gone.
func deleteTable(ctx context.Context, dyn *dynalite.Dynalite, name string) error {
	var missing *types.ResourceNotFoundException
	if _, err := dyn.SDK.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); errors.As(err, &missing) {
		return nil
	} else if err != nil {
		return err
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := dyn.SDK.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); errors.As(err, &missing) {
			return nil
		} else if err != nil {
			return err
		}
	}
	return errors.New("table " + name + " is still there after 10 s")
}

// queries are the Query operations of d's patterns as the SDK sends them.
func queries(d designer.Design) []*dynamodb.QueryInput {
	var out []*dynamodb.QueryInput
	for _, p := range d.Patterns {
		for _, op := range p.Mapping.Operations {
			if op.Op != "Query" {
				continue
			}
			q := &dynamodb.QueryInput{TableName: aws.String(op.Table), KeyConditionExpression: aws.String(op.KeyCondition),
				ScanIndexForward: aws.Bool(!op.Descending), ConsistentRead: aws.Bool(op.Consistent)}
			if op.Index != "" {
				q.IndexName = aws.String(op.Index)
			}
			if op.Filter != "" {
				q.FilterExpression = aws.String(op.Filter)
			}
			if op.Projection != "" {
				q.ProjectionExpression = aws.String(op.Projection)
			}
			if op.Limit != nil {
				q.Limit = aws.Int32(int32(*op.Limit))
			}
			if len(op.Names) > 0 {
				q.ExpressionAttributeNames = op.Names
			}
			if len(op.Values) > 0 {
				q.ExpressionAttributeValues = map[string]types.AttributeValue{}
				for k, v := range op.Values {
					q.ExpressionAttributeValues[k] = dynalite.AttributeValue(v)
				}
			}
			out = append(out, q)
		}
	}
	return out
}
