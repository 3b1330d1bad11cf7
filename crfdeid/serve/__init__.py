"""The HTTP service (extra ``[serve]``): ``python -m crfdeid serve`` (:mod:`crfdeid.cli.serve`),
or :func:`crfdeid.serve.app.create_app` for an ASGI server of your own (:mod:`crfdeid.serve.app`).
"""
