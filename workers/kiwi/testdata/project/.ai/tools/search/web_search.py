#!/usr/bin/env python3
# kiwi-mcp:validated:2026-11-21T12:00:00Z:4514c8a781725df07ca65f794988f466ea680d70e971009f0cb45dc8cb13b454
"""Search the web and return the top results with their titles and links.

Uses the configured search backend. Results are ranked by relevance.

Config Schema:
    query (str): What to search for.
    limit (int, optional): How many results to return.
        Defaults to 10.
    safe (bool, default True): Filter explicit results.
    mode (str, one of fast|thorough, default fast): How hard to search.
    sites (list[str] | None): Only results from these sites.

Returns:
    A JSON list of {title, url}.
"""

__version__ = "1.4.0"
__tool_type__ = "python"
__executor_id__ = "python_runtime"
__category__ = "search"


def main(query, limit=10, safe=True, mode="fast", sites=None):
    print(query)
