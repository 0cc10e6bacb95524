#!/usr/bin/env python3
"""Fake USI engine 'wrong-win' for the match runner's tests; see fakeusi.py."""

import fakeusi

fakeusi.main("win", "wrong-win")
