"""Camera sources and the readers that turn a frame into companion types (cv2 + numpy)."""
