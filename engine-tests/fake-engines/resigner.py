#!/usr/bin/env python3
"""Fake USI engine 'resigner' for the match runner's tests; see fakeusi.py."""

import fakeusi

fakeusi.main("resign", "resigner")
