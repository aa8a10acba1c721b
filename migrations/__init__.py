"""One module per version step; installed as ``k8smigrate.migrations`` and discovered automatically.

Each module declares ``MIGRATION`` (metadata as data, see ``k8smigrate.registry``) and, where
fields change, a ``body(obj, ctx)`` that edits the object in place. The module docstring is
the migration's user documentation (``k8smigrate explain NAME`` prints it).
"""
