print("tiltpuzzled: not yet")
