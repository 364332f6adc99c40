"""Computes its version at run time."""
from importlib.metadata import version

__version__ = version("mypkg")
__tool_type__ = "python"
__executor_id__ = "python_runtime"
