"""Describe a list of numbers: mean, median and spread.

Config Schema:
    {
        "type": "object",
        "properties": {
            "numbers": {"type": "array", "items": {"type": "number"}, "minItems": 1},
            "precision": {"type": "integer", "default": 2}
        },
        "required": ["numbers"]
    }
"""
__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "python_runtime"
