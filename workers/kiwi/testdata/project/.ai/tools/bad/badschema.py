"""Has a Config Schema the parser cannot read.

Config Schema:
    count (integer, default many): How many.
"""
__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "python_runtime"
