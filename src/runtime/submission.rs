//! Submission intake: zips and folders holding bot.py (issue 4).
