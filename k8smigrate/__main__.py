from .console import script

script()
