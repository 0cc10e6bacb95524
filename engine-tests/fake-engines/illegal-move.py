#!/usr/bin/env python3
"""Fake USI engine 'illegal-move' for the match runner's tests; see fakeusi.py."""

import fakeusi

fakeusi.main("illegal", "illegal-move")
