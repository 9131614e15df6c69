// Runs the code-js export's functions against an endpoint: node run.mjs PATTERNS_FILE ENDPOINT ID...
// prints one JSON line per id: the items the answer holds, in DynamoDB JSON, or the error.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { pathToFileURL } from "node:url";

const [file, endpoint, ...ids] = process.argv.slice(2);
const { patterns } = await import(pathToFileURL(file).href);
const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "test", secretAccessKey: "test" } }),
  { unmarshallOptions: { wrapNumbers: true } },
);

// items lists what an answer holds: Item, Items, or every table's Responses.
function items(out) {
  if (out.Item) return [out.Item];
  if (out.Items) return out.Items;
  if (Array.isArray(out.Responses)) return out.Responses.filter((r) => r.Item).map((r) => r.Item);
  if (out.Responses) return Object.keys(out.Responses).sort().flatMap((t) => out.Responses[t]);
  return null;
}

// binary writes a binary as base64, as DynamoDB JSON does.
function binary(key, v) {
  const raw = this[key];
  return raw instanceof Uint8Array ? Buffer.from(raw).toString("base64") : v;
}

for (const id of ids) {
  try {
    const got = items(await patterns[id](doc));
    console.log(JSON.stringify({ id, items: got && got.map((it) => marshall(it)) }, binary));
  } catch (err) {
    console.log(JSON.stringify({ id, error: `${err.name}: ${err.message}` }));
  }
}
