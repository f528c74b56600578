//! Starting four seats at once (issue 4).
