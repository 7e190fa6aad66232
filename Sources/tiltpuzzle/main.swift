print("tiltpuzzle")
