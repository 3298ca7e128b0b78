print("bench placeholder")
