"""Has a version that is not semver."""
__version__ = "1.0"
__tool_type__ = "python"
__executor_id__ = "python_runtime"
