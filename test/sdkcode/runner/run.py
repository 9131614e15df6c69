"""Runs the code-python export's functions against an endpoint: python3 run.py FILE ENDPOINT ID...
prints one JSON line per id: the items the answer holds, in DynamoDB JSON, or the error."""
import base64
import importlib.util
import json
import sys

import boto3

path, endpoint, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
spec = importlib.util.spec_from_file_location("patterns", path)
patterns = importlib.util.module_from_spec(spec)
spec.loader.exec_module(patterns)
client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="test", aws_secret_access_key="test")


def items(out):
    if "Item" in out:
        return [out["Item"]]
    if "Items" in out:
        return out["Items"]
    responses = out.get("Responses")
    if isinstance(responses, list):
        return [r["Item"] for r in responses if "Item" in r]
    if isinstance(responses, dict):
        return [it for t in sorted(responses) for it in responses[t]]
    return None


def binary(b):
    return base64.b64encode(b).decode()


for id in ids:
    try:
        line = {"id": id, "items": items(patterns.PATTERNS[id](client))}
    except Exception as err:  # the test compares the error with the other languages' answers
        name = getattr(err, "response", {}).get("Error", {}).get("Code", type(err).__name__)
        line = {"id": id, "error": f"{name}: {err}"}
    print(json.dumps(line, default=binary))
