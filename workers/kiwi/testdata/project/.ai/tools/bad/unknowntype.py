"""Has an unknown tool type."""
__version__ = "1.0.0"
__tool_type__ = "wizard"
__executor_id__ = "python_runtime"
