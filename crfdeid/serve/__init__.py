"""The HTTP service (extra ``[serve]``): ``python -m crfdeid.serve``, or
:func:`crfdeid.serve.app.create_app` for an ASGI server of your own.

See :mod:`crfdeid.serve.cli` for the command and :mod:`crfdeid.serve.app` for the API.
"""
