"""Recognizers beside the CRF: the rule overlay (Safe-Harbor forms, titles, trigger words)."""
