#!/usr/bin/env python3
"""Fake USI engine 'repeater' for the match runner's tests; see fakeusi.py."""

import fakeusi

fakeusi.main("repeat", "repeater")
