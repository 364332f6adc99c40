'''Count the words, lines and characters of a text file.'''

__version__: str = "0.3.1"
__tool_type__ = 'script'
__executor_id__ = ("bash" "_runtime")


def count(path):
    with open(path) as f:
        text = f.read()
    return len(text.split())
