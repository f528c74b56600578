//! The bot image: build through the Docker API, tag by input hash (issue 4).
