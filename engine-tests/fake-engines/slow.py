#!/usr/bin/env python3
"""Fake USI engine 'slow' for the match runner's tests; see fakeusi.py."""

import fakeusi

fakeusi.main("slow", "slow")
