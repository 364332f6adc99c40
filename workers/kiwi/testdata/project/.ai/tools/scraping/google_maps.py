# kiwi-mcp:validated:2026-11-21T12:00:00Z:3b9512c6919144dff526b5502372026cf53e78e41479cdf7770ea01a461856a1
# Kiwi style: metadata first, then the description string.
__tool_type__ = "api"
__version__ = "2.0.0-beta.1+build.7"
__executor_id__ = "python_runtime"
__category__ = "scraping"
__permissions__ = ["fs.write"]

"""
Google Maps scraper: collect businesses of a category in a city, with
their address, phone number and rating.

Config Schema:
    ```json
    {
      "category": {"type": "string", "description": "Kind of business, e.g. dentists", "required": true},
      "city": {"type": "string", "required": true},
      "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}
    }
    ```
"""

import json


def run(category, city, limit=50):
    return json.dumps({"category": category, "city": city, "limit": limit})
